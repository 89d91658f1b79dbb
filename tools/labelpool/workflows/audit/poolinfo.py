"""What built the label set, and what it can fairly compare (``labelpool pool-info``).

Read from the ``pool`` entries, and each pooled system's run in ``runs/`` when there is one:

* per system: on how many questions it was pooled, at which depths (k -> questions) and on
  which dates;
* *fair at k*: the systems pooled at depth >= k on every judged question. Only for those is
  every document of their top k judged, so their scores at k carry no unjudged penalty. When
  the system's run is in ``runs/`` (a file whose system name is the pooled system's), its
  unjudged rate at k over the judged questions is measured too, and the system is fair only
  when both agree (depth >= k everywhere *and* nothing of its top k unjudged); a disagreement
  is said in words, from what the unjudged documents of its top k are: waiting in a batch
  (verdicts not merged), pooled but marked never judged, or in no label at all (the run is not
  the ranking that was pooled: it changed since, or its top k was taken in another order than
  labelpool's score order, such as a TREC file's rank column);
* *born from*: the systems of the earliest pool entries (the earliest date; when no entry
  carries a date, the first entry of each question), i.e. the systems the set was built around
  and which the set favours;
* questions of unknown origin: judged, but with no pool entry, or only entries of system
  ``unknown`` or with no ``k`` (imported sets say so);
* questions not judged yet;
* run files in ``runs/`` whose system the set cannot fairly compare at k.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from labelpool.config import Config
from labelpool.model import UNKNOWN_SYSTEM, Label
from labelpool.runs import Run, has_run_suffix, read_run, system_name
from labelpool.scoring import unjudged_at
from labelpool.words import counted


@dataclass(frozen=True)
class SystemPool:
    system: str
    questions: int  # judged questions with at least one entry of this system
    depths: tuple[tuple[int | None, int], ...]  # (k, questions at that deepest k), k ascending
    dates: tuple[str, ...]  # distinct dates, sorted
    min_depth: int | None  # smallest per-question depth over judged questions (None: missing)
    fair: bool  # fair by depth, and by the measured rate when its run is in runs/
    fair_by_depth: bool = False  # pooled at depth >= k on every judged question
    unjudged_rate: float | None = None  # measured on its run in runs/ at k (None: no run)
    run: str | None = None  # that run file, relative to the repository
    disagreement: str | None = None  # what depth and measured rate say differently

    @property
    def fair_by_rate(self) -> bool | None:
        return None if self.unjudged_rate is None else self.unjudged_rate == 0.0


@dataclass(frozen=True)
class Measured:
    """A pooled system's run in ``runs/``, measured at k over the judged questions."""

    run: str  # the run file, relative to the repository
    rate: float  # unjudged rate at k
    # the unjudged documents of its top k, by what the labels say of them
    pending: int = 0  # waiting for a verdict in a batch
    marked: int = 0  # pooled but marked never judged (``pooled_unjudged_ids``)
    unpooled: int = 0  # in no label: never pooled for that question


@dataclass(frozen=True)
class PoolInfo:
    k: int
    questions: int
    judged: int
    systems: tuple[SystemPool, ...]
    fair: tuple[str, ...]
    born_from: tuple[str, ...]
    born_date: str | None
    unknown_origin: tuple[str, ...]
    not_judged: tuple[str, ...]
    runs_not_fair: tuple[str, ...]  # systems of run files in runs/ not fair at k


def _depth(label: Label, system: str) -> int | None:
    """The deepest known k this system was pooled at on this question (None: no entry)."""
    ks = [p.k for p in label.pool if p.system == system and p.k is not None]
    return max(ks) if ks else None


def pool_info(
    labels: Mapping[str, Label],
    k: int = 10,
    run_systems: tuple[str, ...] = (),
    measured: Mapping[str, Measured] | None = None,
) -> PoolInfo:
    """Pool provenance of ``labels`` (question id -> Label) and fairness at ``k``;
    ``measured``: system -> its run measured at ``k``, from :func:`measure_runs`."""
    measured = measured or {}
    judged = {q: lab for q, lab in labels.items() if lab.is_judged}
    names = sorted(
        {p.system for lab in judged.values() for p in lab.pool if p.system != UNKNOWN_SYSTEM}
    )
    systems = []
    for name in names:
        per_q = {q: _depth(lab, name) for q, lab in judged.items()}
        present = [q for q, lab in judged.items() if any(p.system == name for p in lab.pool)]
        counts: dict[int | None, int] = {}
        for q in present:
            counts[per_q[q]] = counts.get(per_q[q], 0) + 1
        depths = tuple(sorted(counts.items(), key=lambda kv: (kv[0] is None, kv[0] or 0)))
        known = [d for d in per_q.values() if d is not None]
        min_depth = min(known) if known and len(known) == len(judged) else None
        dates = sorted(
            {p.date for lab in judged.values() for p in lab.pool if p.system == name and p.date}
        )
        by_depth = bool(judged) and all(d is not None and d >= k for d in per_q.values())
        m = measured.get(name)
        run, rate = (None, None) if m is None else (m.run, m.rate)
        why = None if m is None else _disagreement(by_depth, m, k, min_depth)
        systems.append(
            SystemPool(
                name,
                len(present),
                depths,
                tuple(dates),
                min_depth,
                fair=by_depth and (rate is None or rate == 0.0),
                fair_by_depth=by_depth,
                unjudged_rate=rate,
                run=run,
                disagreement=why,
            )
        )

    unknown = tuple(
        sorted(q for q, lab in judged.items() if not lab.pool or all(p.unknown for p in lab.pool))
    )
    born, born_date = _born_from(judged)
    fair_names = tuple(s.system for s in systems if s.fair)
    return PoolInfo(
        k=k,
        questions=len(labels),
        judged=len(judged),
        systems=tuple(systems),
        fair=fair_names,
        born_from=born,
        born_date=born_date,
        unknown_origin=unknown,
        not_judged=tuple(sorted(q for q, lab in labels.items() if not lab.is_judged)),
        runs_not_fair=tuple(sorted(s for s in set(run_systems) if s not in fair_names)),
    )


def _born_from(judged: Mapping[str, Label]) -> tuple[tuple[str, ...], str | None]:
    dates = [p.date for lab in judged.values() for p in lab.pool if p.date]
    if dates:
        first = min(dates)
        systems = {p.system for lab in judged.values() for p in lab.pool if p.date == first}
        return tuple(sorted(systems)), first
    firsts = {lab.pool[0].system for lab in judged.values() if lab.pool}
    return tuple(sorted(firsts)), None


def run_systems(runs_dir: Path) -> tuple[str, ...]:
    """System names of the run files in ``runs_dir`` (by file name; nothing is parsed)."""
    if not runs_dir.is_dir():
        return ()
    return tuple(
        sorted({system_name(p) for p in runs_dir.iterdir() if p.is_file() and has_run_suffix(p)})
    )


def _disagreement(by_depth: bool, m: Measured, k: int, min_depth: int | None) -> str | None:
    """What the stored depth and the measured rate say differently (None: they agree)."""
    rate, run = m.rate, m.run
    if by_depth and rate > 0.0:
        return f"pooled at depth >= {k}, but {rate:.1%} of the top {k} of {run} is unjudged: " + (
            "; ".join(_why_unjudged(m, k))
        )
    if not by_depth and rate == 0.0:
        depth = (
            "with no depth on some judged question"
            if min_depth is None
            else (f"at depth {min_depth} (< {k})")
        )
        return f"nothing of the top {k} of {run} is unjudged, but it was pooled {depth}"
    return None


def _why_unjudged(m: Measured, k: int) -> list[str]:
    """The unjudged documents of a run's top k, counted by cause, each with what it means."""
    out = []
    if m.pending:
        out.append(f"{counted(m.pending, 'document')} waiting in a batch (verdicts not merged yet)")
    if m.marked:
        out.append(f"{counted(m.marked, 'document')} pooled but marked never judged")
    if m.unpooled:
        out.append(
            f"{counted(m.unpooled, 'document')} in no label (this is not the ranking pooled to "
            f"depth {k}: the run changed since, or its top {k} was taken in another order, such as "
            "its rank column; labelpool ranks by score, as trec_eval does)"
        )
    return out


def _unjudged_by_cause(
    run: Run, labels: Mapping[str, Label], qids: Sequence[str], k: int
) -> tuple[int, int, int]:
    """(pending, marked, unpooled): the unjudged documents of ``run``'s top ``k`` on ``qids``,
    by what their label says of them (judged as :func:`labelpool.scoring.unjudged_at` reads
    it: a judgment, a relevant document or a class member, and neither pending nor marked)."""
    pending = marked = unpooled = 0
    top = run.top(k)
    for q in qids:
        lab = labels[q]
        known = lab.judged | frozenset(lab.relevant_doc_ids)
        for doc in top.get(q, ()):
            if doc in lab.pending_ids:
                pending += 1
            elif doc in lab.pooled_unjudged_ids:
                marked += 1
            elif doc not in known:
                unpooled += 1
    return pending, marked, unpooled


def measure_runs(
    cfg: Config, labels: Mapping[str, Label], systems: Sequence[str], k: int
) -> dict[str, Measured]:
    """Each pooled system whose run is in ``runs/`` (one file of that system name): the run's
    path, its unjudged rate at ``k`` over the judged questions and, when some of its top ``k``
    is unjudged, those documents by cause."""
    if not cfg.runs_dir.is_dir():
        return {}
    files: dict[str, list[Path]] = {}
    for p in sorted(cfg.runs_dir.iterdir()):
        if p.is_file() and has_run_suffix(p):
            files.setdefault(system_name(p), []).append(p)
    qids = sorted(q for q, lab in labels.items() if lab.is_judged)
    out: dict[str, Measured] = {}
    for system in systems:
        found = files.get(system, [])
        if len(found) != 1 or not qids:
            continue
        run = read_run(found[0], name=system)
        _, rate = unjudged_at(run, labels, qids, k)
        causes = _unjudged_by_cause(run, labels, qids, k) if rate > 0.0 else (0, 0, 0)
        out[system] = Measured(_shown(cfg, found[0]), float(rate), *causes)
    return out


def _shown(cfg: Config, path: Path) -> str:
    try:
        return path.resolve().relative_to(cfg.root.resolve()).as_posix()
    except ValueError:
        return str(path)


def pooled_systems(labels: Mapping[str, Label]) -> tuple[str, ...]:
    """The systems of the judged questions' pool entries (``unknown`` left out)."""
    return tuple(
        sorted(
            {
                p.system
                for lab in labels.values()
                if lab.is_judged
                for p in lab.pool
                if p.system != UNKNOWN_SYSTEM
            }
        )
    )


def ci_baseline(cfg: Config, labels: Mapping[str, Label]) -> str | None:
    """The system CI compares the runs against: ``[tool.labelpool] baseline``, else, of the
    systems with one run file in ``runs/``, the one pooled on the most judged questions (ties:
    the first by name); None when no run of a pooled system is there."""
    if cfg.baseline is not None:
        return cfg.baseline
    with_runs = set(run_systems(cfg.runs_dir))
    info = pool_info(labels)
    counts = [(-s.questions, s.system) for s in info.systems if s.system in with_runs]
    return min(counts)[1] if counts else None
