"""``labelpool agreement``: how far the judges agree, and what it does to the systems.

The panel (:mod:`labelpool.agreement.panel`) is every document with verdicts by at least two
distinct judges in its record (:func:`labelpool.verdicts.record`); an adjudicator's verdict is
left out (it is not an independent judgment, it settles one), and so is a verdict whose judge
is not recorded (a document judged before labelpool recorded judges). Grades come through
:func:`labelpool.verdicts.grade_of` (``{duplicate-of: ID}`` has ID's grade). ``judges`` keeps
only those judges (a document then needs two of them; ``people`` pools every person as one
rater, ``machine:NAME`` names every identity of a machine judge:
:mod:`labelpool.workflows.evaluate.raters`); ``question_pattern`` (RE2, searched in
the question id) only the matching questions.

With runs, each system is scored under each judge's labels on the panel's documents: the label
through :func:`labelpool.verdicts.resolve` with ``judge=J`` (J's own verdict wherever J gave
one, else the repository's ``disputes`` policy), restricted to the panel's documents (every
other document unjudged: the raw score counts it not relevant). Kendall's tau-b between each
two judges' rankings is flagged below :data:`TAU_SAME_RANKING`; with two systems, a sign of
their difference that is not the same under every judge is flagged too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from labelpool import verdicts
from labelpool.agreement import figures, panel
from labelpool.agreement.figures import Summary
from labelpool.agreement.tau import tau_b
from labelpool.config import Config, PatternError, compile_pattern
from labelpool.errors import InputError, UsageError
from labelpool.model import Label
from labelpool.runs import read_run
from labelpool.scoring import score as score_run
from labelpool.scoring.measures import Measure
from labelpool.workflows.evaluate import raters
from labelpool.workflows.evaluate.bias import without

TAU_SAME_RANKING = 0.9  # Voorhees (2000): rankings with tau >= 0.9 count as the same


class AgreementUsageError(UsageError):
    """A judge or a pattern the command line names cannot be used (exit 2)."""


class TooManyGrades(InputError):
    """The panel holds more distinct grades than the statistics take (exit 1)."""


@dataclass(frozen=True)
class DisputeVerdict:
    judge: str | None
    grade: int | None
    adjudicator: bool = False


@dataclass(frozen=True)
class Dispute:
    question: str
    doc: str
    verdicts: tuple[DisputeVerdict, ...]


@dataclass(frozen=True)
class TauRow:
    first: str
    second: str
    tau: float | None  # None: undefined (fewer than two systems, or one ranking all ties)
    flagged: bool  # tau < TAU_SAME_RANKING


@dataclass(frozen=True)
class Effect:
    """Each system's score under each judge's labels on the panel's documents."""

    measure: str
    k: int
    judges: tuple[str, ...]
    systems: tuple[str, ...]
    scores: tuple[tuple[float | None, ...], ...]  # [system][judge]
    taus: tuple[TauRow, ...]
    sign_differs: bool | None  # two systems: their order differs between judges (else None)
    policy: str


@dataclass(frozen=True)
class AgreementReport:
    summary: Summary
    disputes: tuple[Dispute, ...]
    effect: Effect | None
    judges: tuple[str, ...] | None  # the --judges given (resolved), None: every judge
    question_pattern: str | None
    unrecorded: int  # verdicts left out: their judge is not recorded


def matcher(pattern: str | None) -> Any:
    """``pattern`` compiled by RE2 (usage error naming the option when RE2 refuses it)."""
    if pattern is None:
        return None
    try:
        return compile_pattern(pattern)
    except PatternError as exc:
        raise AgreementUsageError(f"--question-pattern: RE2 refuses {pattern!r}: {exc}") from None


def selected(labels: Mapping[str, Label], pattern: str | None) -> dict[str, Label]:
    """The labels whose question id the pattern finds (RE2 search), in id order."""
    compiled = matcher(pattern)
    chosen = sorted(labels)
    if compiled is not None:
        chosen = [q for q in chosen if compiled.search(q) is not None]
    return {q: labels[q] for q in chosen}


def known_judges(labels: Mapping[str, Label]) -> list[str]:
    return sorted({j for label in labels.values() for j in verdicts.judges(label)})


def resolve_judges(
    given: Sequence[str], known: Sequence[str], machine_ids: Sequence[str] = ()
) -> tuple[str, ...]:
    """The judges ``given`` names: each a full identity, or a person's email alone, or a
    group (:mod:`labelpool.workflows.evaluate.raters`: ``people``, ``machine:NAME``); a name
    may hold commas (``Lopez, Ana <ana@x>``): pieces of a comma-separated list are joined until
    they name a judge. Unknown: usage error listing the known ones."""
    out: list[str] = []
    for value in given:
        pieces = value.split(",")
        i = 0
        while i < len(pieces):
            group = raters.expand(pieces[i].strip(), machine_ids)
            if group is not None:
                if not group:
                    listed = "; ".join(machine_ids) or "none"
                    raise AgreementUsageError(
                        f"--judges: no machine judge {pieces[i].strip()[8:]!r}; machine "
                        f"judges: {listed}"
                    )
                out += group
                i += 1
                continue
            for j in range(len(pieces), i, -1):
                found = _judge_named(",".join(pieces[i:j]).strip(), known)
                if found is not None:
                    out.append(found)
                    i = j
                    break
            else:
                name = pieces[i].strip()
                listed = "; ".join(known) if known else "none: no verdict names a judge"
                raise AgreementUsageError(f"--judges: no judge {name!r}; known judges: {listed}")
    return tuple(dict.fromkeys(out))


def _judge_named(name: str, known: Sequence[str]) -> str | None:
    hits = verdicts.named(name, known) if name else []
    return hits[0] if len(hits) == 1 else None


def _units(
    label: Label, doc: str, keep: frozenset[str] | None, policy: str = "bounds"
) -> dict[str, int]:
    """Each independent judge's grade of ``doc`` (first verdict of a judge named twice), and
    the pooled ``people`` rater's where ``keep`` names it."""
    out: dict[str, int] = {}
    for entry in verdicts.record(label, doc):
        if entry.adjudicator or entry.judge is None or entry.judge in out:
            continue
        if keep is not None and entry.judge not in keep:
            continue
        grade = verdicts.grade_of(label, entry.verdict)
        if grade is not None:
            out[entry.judge] = max(grade, 0)
    if keep is not None and raters.PEOPLE in keep:
        pooled = raters.people_grade(label, doc, policy)
        if pooled is not None:
            out[raters.PEOPLE] = max(pooled, 0)
    return out


def build_panel(
    labels: Mapping[str, Label], keep: Sequence[str] | None, policy: str = "bounds"
) -> tuple[panel.Panel, int]:
    """The panel, and how many verdicts were left out for an unrecorded judge."""
    wanted = frozenset(keep) if keep is not None else None
    found: list[tuple[str, str, dict[str, int]]] = []
    unrecorded = 0
    for qid, label in labels.items():
        for doc in sorted(label.verdicts):
            entries = verdicts.record(label, doc)
            unrecorded += sum(1 for e in entries if e.judge is None and not e.adjudicator)
            graded = _units(label, doc, wanted, policy)
            if len(graded) >= 2:
                found.append((qid, doc, graded))
    judges = list(keep) if keep is not None else sorted({j for *_, g in found for j in g})
    questions = list(dict.fromkeys(q for q, _, _ in found))
    index = {q: i for i, q in enumerate(questions)}
    rows = [
        (index[q], doc, [float(g[j]) if j in g else np.nan for j in judges]) for q, doc, g in found
    ]
    built = panel.build(judges, questions, rows)
    if built.values.size > panel.MAX_CATEGORIES:
        raise TooManyGrades(
            f"agreement takes at most {panel.MAX_CATEGORIES} distinct grades; the doubly judged "
            f"documents hold {built.values.size} (from {built.values[0]} to {built.values[-1]})"
        )
    return built, unrecorded


def disputes(labels: Mapping[str, Label]) -> tuple[Dispute, ...]:
    """Every open dispute (:func:`labelpool.verdicts.disputed`), by question, then document."""
    out = []
    for qid, label in labels.items():
        for doc in sorted(verdicts.disputed(label)):
            shown = tuple(
                DisputeVerdict(e.judge, verdicts.grade_of(label, e.verdict), e.adjudicator)
                for e in verdicts.record(label, doc)
            )
            out.append(Dispute(qid, doc, shown))
    return tuple(out)


def restricted(label: Label, docs: frozenset[str]) -> Label:
    """``label`` judged on ``docs`` only."""
    return without(label, label.judged - docs)


def effect(
    labels: Mapping[str, Label],
    the_panel: panel.Panel,
    runs: Sequence[Path],
    measure: Measure,
    *,
    k: int,
    policy: str,
) -> Effect:
    """Each run scored under each judge's labels on the panel's documents (the module's text)."""
    docs: dict[str, set[str]] = {}
    for qi, doc in zip(the_panel.question.tolist(), the_panel.docs, strict=True):
        docs.setdefault(the_panel.questions[qi], set()).add(doc)
    loaded = [read_run(path) for path in runs]
    scores: list[list[float | None]] = [[] for _ in loaded]
    for judge in the_panel.judges:
        pooled = judge == raters.PEOPLE  # the people's counting verdicts
        judged = {
            q: restricted(
                verdicts.resolve(
                    labels[q],
                    policy,
                    judge=None if pooled else judge,
                    judges="people" if pooled else "all",
                ),
                frozenset(d),
            )
            for q, d in docs.items()
        }
        for i, run in enumerate(loaded):
            mean = float(score_run(run, judged, [measure], k=k).means[measure.name].raw)
            scores[i].append(None if np.isnan(mean) else mean)
    taus = []
    for a, b in combinations(range(len(the_panel.judges)), 2):
        x = [s[a] for s in scores]
        y = [s[b] for s in scores]
        tau = None
        if None not in x and None not in y and len(x) >= 2:
            value = tau_b(
                [float(v) for v in x if v is not None], [float(v) for v in y if v is not None]
            )
            tau = None if np.isnan(value) else value
        taus.append(
            TauRow(
                the_panel.judges[a],
                the_panel.judges[b],
                tau,
                tau is not None and tau < TAU_SAME_RANKING,
            )
        )
    sign_differs = None
    if len(loaded) == 2 and the_panel.judges:
        signs = {
            int(np.sign(s1 - s0))
            for s0, s1 in zip(scores[0], scores[1], strict=True)
            if s0 is not None and s1 is not None
        }
        sign_differs = len(signs) > 1
    return Effect(
        measure=measure.name,
        k=k,
        judges=the_panel.judges,
        systems=tuple(run.name for run in loaded),
        scores=tuple(tuple(s) for s in scores),
        taus=tuple(taus),
        sign_differs=sign_differs,
        policy=policy,
    )


def agreement(
    cfg: Config,
    labels: Mapping[str, Label],
    *,
    judges: Sequence[str] | None = None,
    question_pattern: str | None = None,
    runs: Sequence[Path] = (),
    measure: Measure | None = None,
    k: int = 10,
    replicates: int = 1000,
    seed: int = 0,
) -> AgreementReport:
    """The whole report (see the module's text)."""
    chosen = selected(labels, question_pattern)
    known = known_judges(labels)
    keep = resolve_judges(judges, known, raters.machines(labels)) if judges else None
    the_panel, unrecorded = build_panel(chosen, keep, cfg.disputes)
    summary = figures.summarise(the_panel, replicates=replicates, seed=seed)
    shown_effect = None
    if runs:
        if measure is None:
            raise AgreementUsageError("--runs needs a measure (-m)")
        shown_effect = effect(chosen, the_panel, runs, measure, k=k, policy=cfg.disputes)
    return AgreementReport(
        summary=summary,
        disputes=disputes(chosen),
        effect=shown_effect,
        judges=keep,
        question_pattern=question_pattern,
        unrecorded=unrecorded,
    )
