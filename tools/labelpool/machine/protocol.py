"""One question to a machine judge, its answer, and the shape of a backend that gives it.

A backend (``openai`` for an OpenAI-compatible chat endpoint, ``command`` for a program speaking
the JSON-lines protocol of docs/machine-judges.md) answers one :class:`Item` with one
:class:`Reply`. It is called from several threads at once (``judge --concurrency C``), retries
what is worth retrying itself, and never raises for an answer it cannot read: that is a reply
with ``grade=None`` and ``error`` saying why ("can't judge"), with the raw answer kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Item:
    """One document to judge for one question (the JSON object a ``command`` judge reads)."""

    question_id: str
    question: str
    doc_id: str
    text: str
    grades: tuple[int, ...]  # the scale, lowest first (0..3 for the shipped prompt)


@dataclass(frozen=True)
class Reply:
    """A machine judge's answer on one document: a grade of the scale, or why there is none."""

    doc_id: str
    grade: int | None
    error: str | None = None  # set exactly when grade is None
    raw: str = ""  # the model's reply (all samples, as received), for the response cache
    cost: float = 0.0  # tokens used (prompt + completion), for the progress line

    def __post_init__(self) -> None:
        if (self.grade is None) == (self.error is None):
            raise ValueError("a reply holds a grade or an error, exactly one")


class Backend(Protocol):
    """Asks a model; thread-safe; a transport failure after retries is a Reply with an error."""

    def ask(self, item: Item) -> Reply: ...

    def close(self) -> None: ...
