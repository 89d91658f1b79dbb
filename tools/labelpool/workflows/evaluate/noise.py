"""How many sign-flip draws and bootstrap resamples the noise floor of a comparison makes.

Their cost is draws x questions. By default the sign-flip test makes :data:`stats.DRAWS`
draws and the bootstrap :data:`stats.RESAMPLES` resamples while their product with the
questions fits a :class:`Budget` (:data:`BUDGET`: 1e9 and 1e8, so up to 10,000 questions
nothing changes); past it, fewer (:func:`labelpool.stats.draws_for`: at least 10,000 draws and
1,000 resamples, in whole thousands and hundreds). A count asked for (``--draws``,
``--resamples``) is made exactly, whatever the size: an explicit request is never reduced.
Where the counts made differ from the defaults, the renderers state them.
"""

from __future__ import annotations

from dataclasses import dataclass

from labelpool import stats
from labelpool.errors import UsageError

__all__ = ["BUDGET", "MAX_COUNT", "Budget", "Counts", "checked", "counts"]

MAX_COUNT = 10_000_000  # draws or resamples asked for (the bootstrap keeps 8 bytes of each)


@dataclass(frozen=True)
class Budget:
    """Draws x questions the defaults may cost, past which fewer are made."""

    draws: int = stats.DRAWS_BUDGET
    resamples: int = stats.RESAMPLES_BUDGET


BUDGET = Budget()


@dataclass(frozen=True)
class Counts:
    """The draws of the sign-flip test and the resamples of the bootstrap of one comparison."""

    draws: int
    resamples: int


def checked(option: str, value: object) -> int | None:
    """``value`` of ``option`` (``--draws``, ``--resamples``) when None or an int from 1 to
    :data:`MAX_COUNT`; else a usage error (exit 2) that says so."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise UsageError(f"{option} must be a whole number, not {value!r}")
    if not 1 <= value <= MAX_COUNT:
        raise UsageError(f"{option} must be from 1 to {MAX_COUNT:,}, not {value}")
    return value


def counts(
    questions: int,
    draws: int | None = None,
    resamples: int | None = None,
    budget: Budget = BUDGET,
) -> Counts:
    """The counts a comparison over ``questions`` makes: ``draws`` and ``resamples`` as given,
    or (None) the defaults within ``budget``."""
    asked_draws = checked("--draws", draws)
    asked_resamples = checked("--resamples", resamples)
    return Counts(
        draws=(
            asked_draws
            if asked_draws is not None
            else stats.draws_for(
                questions, stats.DRAWS, budget.draws, stats.DRAWS_FLOOR, stats.DRAWS_STEP
            )
        ),
        resamples=(
            asked_resamples
            if asked_resamples is not None
            else stats.draws_for(
                questions,
                stats.RESAMPLES,
                budget.resamples,
                stats.RESAMPLES_FLOOR,
                stats.RESAMPLES_STEP,
            )
        ),
    )
