"""Corpus facts: chunk text by document id, and which documents supersede which.

* Text: a BEIR-style ``corpus.jsonl`` (one ``{"_id", "title", "text"}`` object per line),
  indexed on first use and read lazily (:func:`load_texts`).
* Versions: ``corpus/versions.yaml`` (schema ``schema/versions.schema.json``)::

      supersedes:
        pep-3333: [pep-0333]
        pep-0600: [pep-0513, pep-0571, pep-0599]

  Links are between *documents*, the part of an id before ``#`` (a link covers all their
  chunks); a document may supersede several and several may supersede one. The config's
  ``version_pattern`` adds implicit links within a family (``policy-returns-v3`` supersedes
  ``policy-returns-v2``). :meth:`Versions.supersedes` follows links transitively.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import jsonschema

from labelpool import schemas
from labelpool.config import Config, compile_pattern
from labelpool.errors import InputError
from labelpool.yamlfile import YamlError, load_fast, load_roundtrip, node_position


class CorpusError(InputError):
    """The corpus or versions file cannot be used (exit 1); ``str()`` is ``path:line:col: ...``;
    ``path``, ``line`` and ``column`` say where."""


@dataclass(frozen=True)
class Text:
    doc_id: str
    title: str
    text: str


def document(doc_id: str) -> str:
    """The document a chunk id belongs to: the part before ``#``."""
    return doc_id.split("#", 1)[0]


class CorpusTexts(Mapping[str, Text]):
    """Chunk text by id from a JSONL corpus: indexed once (id -> byte offset), read on demand."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._offsets: dict[str, int] | None = None

    def _index(self) -> dict[str, int]:
        if self._offsets is None:
            offsets: dict[str, int] = {}
            try:
                with open(self.path, "rb") as fh:
                    offset = 0
                    for lineno, line in enumerate(fh, 1):
                        if line.strip():
                            doc_id = self._parse(line, lineno).get("_id")
                            if not isinstance(doc_id, str):
                                raise CorpusError(
                                    "no string `_id`", path=self.path, line=lineno, column=1
                                )
                            offsets.setdefault(doc_id, offset)
                        offset += len(line)
            except OSError as exc:
                raise CorpusError(
                    f"cannot read corpus: {exc.strerror}", path=self.path, line=1, column=1
                ) from None
            self._offsets = offsets
        return self._offsets

    def _parse(self, line: bytes, lineno: int) -> dict[str, object]:
        try:
            obj = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            col = getattr(exc, "colno", 1)
            raise CorpusError(f"not JSON: {exc}", path=self.path, line=lineno, column=col) from None
        if not isinstance(obj, dict):
            raise CorpusError("not a JSON object", path=self.path, line=lineno, column=1)
        return obj

    def ids(self) -> frozenset[str]:
        return frozenset(self._index())

    def __getitem__(self, doc_id: str) -> Text:
        offset = self._index()[doc_id]
        with open(self.path, "rb") as fh:
            fh.seek(offset)
            obj = self._parse(fh.readline(), 0)
        return Text(doc_id, str(obj.get("title") or ""), str(obj.get("text") or ""))

    def __iter__(self) -> Iterator[str]:
        return iter(self._index())

    def __len__(self) -> int:
        return len(self._index())

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._index()


def load_texts(cfg: Config) -> Mapping[str, Text]:
    """Chunk text of the configured corpus (empty when none is configured)."""
    if cfg.corpus is None:
        return {}
    return CorpusTexts(cfg.corpus)


@dataclass(frozen=True)
class Versions:
    """Supersession links between documents, explicit and by ``pattern`` (transitive)."""

    links: Mapping[str, frozenset[str]] = field(default_factory=dict)  # newer -> older
    pattern: str | None = None

    def _family(self, doc: str) -> tuple[str, int] | None:
        if self.pattern is None:
            return None
        match = compile_pattern(self.pattern).match(doc)
        if match is None:
            return None
        try:  # a group that took no part in the match is None
            return str(match.group("family")), int(match.group("version"))
        except (IndexError, ValueError, TypeError):
            return None

    def direct(self, doc: str, known: frozenset[str] = frozenset()) -> set[str]:
        """Documents ``doc`` supersedes directly: explicit links and older family members
        among the documents this object knows plus ``known``."""
        doc = document(doc)
        out = set(self.links.get(doc, ()))
        fam = self._family(doc)
        if fam is not None:
            out.update(d for v, d in self._families.get(fam[0], ()) if v < fam[1])
            for other in known:
                ofam = self._family(other)
                if ofam is not None and ofam[0] == fam[0] and ofam[1] < fam[1]:
                    out.add(other)
        return out

    @cached_property
    def _families(self) -> dict[str, list[tuple[int, str]]]:
        out: dict[str, list[tuple[int, str]]] = {}
        for doc in self._universe():
            fam = self._family(doc)
            if fam is not None:
                out.setdefault(fam[0], []).append((fam[1], doc))
        return out

    @cached_property
    def _universe_set(self) -> frozenset[str]:
        out = set(self.links)
        for olders in self.links.values():
            out |= olders
        return frozenset(out)

    def _universe(self) -> frozenset[str]:
        return self._universe_set

    def supersedes(self, newer: str, older: str) -> bool:
        """True when ``newer`` supersedes ``older``, directly or through a chain (ids may be
        chunk ids; their documents are compared)."""
        a, b = document(newer), document(older)
        if a == b:
            return False
        known = frozenset({a, b})
        seen = {a}
        todo = [a]
        while todo:
            for nxt in self.direct(todo.pop(), known):
                if nxt == b:
                    return True
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return False


def versions_from_mapping(
    supersedes: Mapping[str, list[str] | tuple[str, ...]], pattern: str | None = None
) -> Versions:
    links: dict[str, set[str]] = {}
    for newer, olders in supersedes.items():
        links.setdefault(document(newer), set()).update(document(o) for o in olders)
    return Versions({k: frozenset(v) for k, v in links.items()}, pattern)


def load_versions(cfg: Config) -> Versions:
    """The configured versions file (if any) plus the config's version pattern."""
    if cfg.versions is None or not cfg.versions.is_file():
        return Versions({}, cfg.version_pattern)
    return read_versions(cfg.versions, cfg.version_pattern, cfg.root)


def read_versions(path: Path, pattern: str | None, root: Path | None = None) -> Versions:
    """Read and check a versions file; raises :class:`CorpusError` with a position."""
    try:
        data = load_fast(path)
    except YamlError as exc:
        raise CorpusError(
            f"{exc.rule} {exc.message}", path=exc.path, line=exc.line, column=exc.column
        ) from None
    validator = jsonschema.Draft202012Validator(schemas.load(schemas.VERSIONS, root))
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        err = errors[0]
        keypath = tuple(err.absolute_path)
        try:
            doc = load_roundtrip(path)
            line, col = node_position(doc.data, keypath)
        except (YamlError, KeyError, IndexError, TypeError):
            line, col = 1, 1
        raise CorpusError(err.message, path=path, line=line, column=col)
    return versions_from_mapping(data["supersedes"], pattern)
