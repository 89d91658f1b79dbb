"""Which questions a run and the labels have in common (``score``, ``compare``, ``check``,
``report``).

The scored questions are the judged labels (:func:`labelpool.scoring.scored_qids`): a scored
question the run lacks counts 0, as ``trec_eval -c`` does; a run question with no label is
ignored. A run that shares no scored question with the labels scores 0 on every measure,
which reads as a result: :func:`require_overlap` makes it an error
(:class:`NoCommonQuestion`, exit 1) that names a few ids of each side.

* :class:`Coverage` ``(system, scored, missing, not_in_labels)``: one run's facts, from its
  :class:`~labelpool.scoring.SystemScore` (:func:`of`).
* :func:`require_overlap` ``(score)``: raise :class:`NoCommonQuestion` when nothing is shared.
* :func:`in_both` ``(a, b) -> (questions, fraction)``: the scored questions two runs both hold
  (``check --min-coverage``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from labelpool.errors import InputError
from labelpool.scoring import SystemScore

NAMED = 3  # ids of each side named by NoCommonQuestion


class NoCommonQuestion(InputError):
    """A run shares no scored question with the labels: every value would be 0 (exit 1)."""


@dataclass(frozen=True)
class Coverage:
    """One run against the scored questions."""

    system: str
    scored: int  # the labelled (judged) questions averaged over
    missing: tuple[str, ...]  # scored questions the run lacks: counted 0 (trec_eval -c)
    not_in_labels: int  # run questions with no label file: ignored

    @property
    def in_run(self) -> int:
        """Scored questions the run holds."""
        return self.scored - len(self.missing)

    @property
    def partial(self) -> bool:
        """Whether the run and the labels differ in their questions (a line says how)."""
        return bool(self.missing) or self.not_in_labels > 0


def of(score: SystemScore) -> Coverage:
    """The coverage of one scored run."""
    return Coverage(
        system=score.system,
        scored=len(score.qids),
        missing=score.missing,
        not_in_labels=int(score.skipped.get("not_in_labels", 0)),
    )


def some(ids: Sequence[str], total: int | None = None, limit: int = NAMED) -> str:
    """Up to ``limit`` of ``ids``, then how many more of ``total`` (default: ``len(ids)``)."""
    total = len(ids) if total is None else total
    shown = ", ".join(ids[:limit])
    more = total - min(len(ids), limit)
    return shown + (f" and {more:,} more" if more > 0 else "") if shown else "none"


def require_overlap(score: SystemScore) -> None:
    """Raise :class:`NoCommonQuestion` when the run of ``score`` holds none of the scored
    questions (and there are some: no scored question at all is the caller's own error)."""
    scored = [str(q) for q in score.qids]
    if not scored or len(score.missing) < len(scored):
        return
    run = some(score.run_sample, score.run_questions)
    labels = some(scored)
    judged_only = score.run_questions > int(score.skipped.get("not_in_labels", 0))
    what = "judged question" if judged_only else "question"
    raise NoCommonQuestion(
        f"no {what} in common with the labels (run: {run}; labels: {labels})",
        path=score.run_path,
    )


def in_both(a: Coverage, b: Coverage) -> tuple[int, float]:
    """The scored questions both runs hold, and their share of the scored questions (1.0
    when nothing is scored)."""
    both = a.scored - len(set(a.missing) | set(b.missing))
    return both, (both / a.scored if a.scored else 1.0)
