"""``labelpool judge``, what the page says about a document: its text and its version facts.

* Text: the configured corpus (title and text), else the batch's ``# text:`` comment (what
  ``pool`` wrote of the document, marked "from the batch's comment; not in the corpus"), else
  "not in the corpus".
* Versions: the documents it supersedes and those that supersede it, directly or through a
  chain, from ``corpus/versions.yaml`` and the configured ``version_pattern``
  (:mod:`labelpool.corpus`), among the documents labelpool knows of: the links, the corpus,
  and the documents of the batch and the label set.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

from labelpool import corpus
from labelpool.batch import NOT_IN_CORPUS
from labelpool.config import Config

CORPUS, BATCH, NONE = "corpus", "batch", "none"
NOT_IN_CORPUS_TEXT = "not in the corpus"
FROM_BATCH_NOTE = "from the batch's comment; not in the corpus"
FROM_BATCH_NO_CORPUS_NOTE = "from the batch's comment; no corpus is configured"


@dataclass(frozen=True)
class DocText:
    title: str
    text: str
    source: str  # CORPUS, BATCH or NONE
    note: str = ""  # where a text not from the corpus comes from


@dataclass(frozen=True)
class VersionFacts:
    supersedes: tuple[str, ...]
    superseded_by: tuple[str, ...]


class Facts:
    """Texts and version facts of documents, read once per page run (the corpus index and the
    versions file)."""

    def __init__(self, cfg: Config, known_ids: Iterable[str] = ()) -> None:
        self.cfg = cfg
        self.texts: Mapping[str, corpus.Text] = corpus.load_texts(cfg)
        self.versions = corpus.load_versions(cfg)
        self._known = {corpus.document(d) for d in known_ids}

    def text(self, doc: str, batch_text: str | None) -> DocText:
        try:
            found = self.texts.get(doc)
        except corpus.CorpusError:
            found = None
        if found is not None:
            return DocText(found.title, found.text, CORPUS)
        if batch_text is not None and batch_text != NOT_IN_CORPUS:
            note = FROM_BATCH_NOTE if self.cfg.corpus is not None else FROM_BATCH_NO_CORPUS_NOTE
            return DocText("", batch_text, BATCH, note)
        return DocText("", NOT_IN_CORPUS_TEXT, NONE)

    @cached_property
    def _documents(self) -> frozenset[str]:
        out = set(self._known)
        with contextlib.suppress(corpus.CorpusError):
            out.update(corpus.document(d) for d in self.texts)
        for newer, olders in self.versions.links.items():
            out.add(newer)
            out.update(olders)
        return frozenset(out)

    @cached_property
    def _families(self) -> dict[str, frozenset[str]]:
        out: dict[str, set[str]] = {}
        for d in self._documents:
            fam = self.versions._family(d)
            if fam is not None:
                out.setdefault(fam[0], set()).add(d)
        return {k: frozenset(v) for k, v in out.items()}

    def _related(self, doc: str) -> frozenset[str]:
        """Documents that can be linked to ``doc``: its family and every explicit link."""
        fam = self.versions._family(doc)
        out = set(self._families.get(fam[0], ())) if fam is not None else set()
        out.update(self.versions.links)
        for olders in self.versions.links.values():
            out.update(olders)
        return frozenset(out)

    def versions_of(self, doc_id: str) -> VersionFacts:
        doc = corpus.document(doc_id)
        related = self._related(doc)
        older: set[str] = set()
        newer: set[str] = set()
        for other in related:
            if other == doc:
                continue
            if self.versions.supersedes(doc, other):
                older.add(other)
            elif self.versions.supersedes(other, doc):
                newer.add(other)
        return VersionFacts(tuple(sorted(older)), tuple(sorted(newer)))
