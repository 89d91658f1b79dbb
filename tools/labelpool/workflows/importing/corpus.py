"""``labelpool import corpus SRC --format trec|jsonl|beir``: the configured corpus file, written
as BEIR JSON Lines (``{"_id", "title", "text"}``, one document a line), the form
:mod:`labelpool.corpus` reads.

* ``trec``: ``<DOC> <DOCNO>id</DOCNO> ... </DOC>`` blocks (the tags anywhere on a line),
  from a file or every file of a folder (recursively, in name order; hidden files skipped);
  ``_id`` is the DOCNO, ``text`` the rest of the block with its SGML tags stripped,
  entities decoded and whitespace collapsed; ``title`` is empty.
* ``jsonl``: one object a line with an id (``_id``, ``id``, ``docid`` or ``doc_id``), a text
  (``text``, ``contents`` or ``body``) and an optional ``title``.
* ``beir``: a BEIR folder's ``corpus.jsonl`` (or that file): ``_id``, ``text``, ``title``.

Any source may be gzip-compressed. Other keys of a JSON object are kept after the three.
Every document id must pass the rule ``pool`` and ``import trec`` apply
(:func:`labelpool.rules.written.doc_id_problem`) and appear once. The file is written
atomically while the source is read (never held whole): a failure or a kill at any point
leaves the old file or none; an existing file is replaced only with ``force``.
"""

from __future__ import annotations

import gzip
import html
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, cast

from labelpool import atomic, repolock
from labelpool.config import Config
from labelpool.workflows.importing.input import (
    ImportFailed,
    ImportUsageError,
    check_doc,
    json_object,
)

FORMATS = ("trec", "jsonl", "beir")
ID_KEYS = ("_id", "id", "docid", "doc_id")
TEXT_KEYS = ("text", "contents", "body")
BEIR_NAMES = ("corpus.jsonl", "corpus.jsonl.gz")


@dataclass(frozen=True)
class CorpusImport:
    """What ``import corpus`` wrote."""

    path: Path
    documents: int
    replaced: bool


@dataclass(frozen=True)
class _Doc:
    doc_id: str
    record: dict[str, Any]  # the line to write: _id, title, text, then any other keys


def target(cfg: Config) -> Path:
    """The configured corpus file; a usage error naming the setting when there is none."""
    if cfg.corpus is None:
        raise ImportUsageError(
            'no corpus is configured: add `corpus = "corpus/corpus.jsonl"` under '
            "[tool.labelpool] in pyproject.toml, then run this again",
            path=cfg.root / "pyproject.toml",
        )
    return cfg.corpus


def import_corpus(
    cfg: Config, source: Path, fmt: str, *, force: bool = False, wait: float = 0.0
) -> CorpusImport:
    """Write ``source`` (in ``fmt``) as the configured corpus file; see the module doc. Under
    the repository lock (``wait``: seconds to wait for another writer)."""
    if fmt not in FORMATS:
        raise ImportUsageError(f"--format must be trec, jsonl or beir, not {fmt!r}")
    out = target(cfg)
    with repolock.held(out.parent, command="labelpool import corpus", wait=wait):
        return _import_corpus(out, source, fmt, force)


def _import_corpus(out: Path, source: Path, fmt: str, force: bool) -> CorpusImport:
    files = _sources(source, fmt)
    existed = out.exists() or out.is_symlink()
    if existed and not force:
        raise ImportFailed(
            "the corpus file exists already; nothing written (use --force to replace it)",
            path=out,
        )
    if out.is_symlink() or (existed and not out.is_file()):
        raise ImportFailed("not a regular file; not replaced", path=out)
    counted = [0]
    chunks = _encoded(_documents(files, fmt), counted)
    atomic.refuse_unwritable([out.parent])
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ImportFailed(f"cannot create its folder: {exc.strerror}", path=out) from None
    if existed:
        atomic.write_bytes(out, chunks)
    else:
        try:
            atomic.write_new(out, chunks)
        except FileExistsError:
            raise ImportFailed(
                "the corpus file appeared meanwhile; nothing written (use --force)", path=out
            ) from None
    return CorpusImport(path=out, documents=counted[0], replaced=existed)


def _sources(source: Path, fmt: str) -> list[Path]:
    if fmt == "beir" and source.is_dir():
        for name in BEIR_NAMES:
            if (source / name).is_file():
                return [source / name]
        raise ImportUsageError("no corpus.jsonl in this BEIR folder", path=source)
    if source.is_dir():
        if fmt != "trec":
            raise ImportUsageError(f"a folder; --format {fmt} reads one file", path=source)
        files = sorted(
            p
            for p in source.rglob("*")
            if p.is_file() and not any(part.startswith(".") for part in p.relative_to(source).parts)
        )
        if not files:
            raise ImportUsageError("no file in this folder", path=source)
        return files
    if not source.is_file():
        raise ImportUsageError("not found", path=source)
    return [source]


def _open(path: Path) -> BinaryIO:
    try:
        with path.open("rb") as probe:
            gz = probe.read(2) == b"\x1f\x8b"
        if gz:
            return cast(BinaryIO, gzip.open(path, "rb"))
        return path.open("rb")
    except OSError as exc:
        raise ImportUsageError(f"cannot read: {exc.strerror or exc}", path=path) from None


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    """Numbered lines (ends kept) of a UTF-8 text file, gzip or not; errors name the line."""
    with _open(path) as handle:
        n = 0
        try:
            for n, raw in enumerate(handle, start=1):
                try:
                    line = raw.decode("utf-8-sig" if n == 1 else "utf-8")
                except UnicodeDecodeError as exc:
                    raise ImportFailed(
                        f"not UTF-8 ({exc.reason} at byte {exc.start} of the line)",
                        path=path,
                        line=n,
                        column=1,
                    ) from None
                yield n, line
        except (OSError, EOFError) as exc:  # a truncated or corrupt gzip stream
            raise ImportFailed(f"cannot read: {exc}", path=path, line=n + 1) from None


def _documents(files: list[Path], fmt: str) -> Iterator[_Doc]:
    seen: dict[str, tuple[Path, int]] = {}
    for path in files:
        docs = _trec(path) if fmt == "trec" else _jsonl(path, beir=fmt == "beir")
        for doc, line in docs:
            first = seen.get(doc.doc_id)
            if first is not None:
                where = f"line {first[1]}" if first[0] == path else f"{first[0]}:{first[1]}"
                raise ImportFailed(
                    f"document {doc.doc_id!a} appears twice (first at {where}); nothing written",
                    path=path,
                    line=line,
                    column=1,
                )
            seen[doc.doc_id] = (path, line)
            yield doc


def _encoded(docs: Iterator[_Doc], counted: list[int]) -> Iterator[bytes]:
    """The output in chunks of about 1 MiB; ``counted[0]``: documents so far."""
    buffer: list[str] = []
    size = 0
    for doc in docs:
        line = json.dumps(doc.record, ensure_ascii=False) + "\n"
        buffer.append(line)
        size += len(line)
        counted[0] += 1
        if size >= 1 << 20:
            yield "".join(buffer).encode("utf-8")
            buffer, size = [], 0
    if buffer:
        yield "".join(buffer).encode("utf-8")


_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_TAG_RE = re.compile(r"<[^>]*>")
_DOCNO_RE = re.compile(r"<DOCNO>(.*?)</DOCNO>", re.DOTALL | re.IGNORECASE)
_DOC_TAG_RE = re.compile(r"<(/?)DOC>", re.IGNORECASE)


def _trec(path: Path) -> Iterator[tuple[_Doc, int]]:
    """``<DOC>`` ... ``</DOC>`` blocks, the tags anywhere on a line (each block usually on
    lines of its own, but ``<DOC><DOCNO>a</DOCNO> text</DOC>`` on one line is read too)."""
    start: int | None = None
    body: list[str] = []
    n = 0
    for n, line in _lines(path):
        pos = 0
        for tag in _DOC_TAG_RE.finditer(line):
            before = line[pos : tag.start()]
            if start is not None:
                if not tag.group(1):
                    raise ImportFailed(
                        f"<DOC> inside the <DOC> opened on line {start}",
                        path=path,
                        line=n,
                        column=tag.start() + 1,
                    )
                body.append(before)
                yield _trec_doc(path, start, "".join(body)), start
                start = None
            else:
                _refuse_outside(path, n, line, pos, tag.start())
                if tag.group(1):
                    raise ImportFailed(
                        "</DOC> without its <DOC>", path=path, line=n, column=tag.start() + 1
                    )
                start, body = n, []
            pos = tag.end()
        if start is None:
            _refuse_outside(path, n, line, pos, len(line))
        else:
            body.append(line[pos:])
    if start is not None:
        raise ImportFailed("the <DOC> opened here has no </DOC>", path=path, line=start, column=1)
    if n == 0:
        raise ImportFailed("an empty file", path=path, line=1, column=1)


def _refuse_outside(path: Path, n: int, line: str, start: int, end: int) -> None:
    """Text between documents is an error (a file that is not TREC, or a lost tag)."""
    text = line[start:end]
    if text.strip():
        raise ImportFailed(
            "text outside a <DOC> ... </DOC> block",
            path=path,
            line=n,
            column=start + len(text) - len(text.lstrip()) + 1,
        )


def _trec_doc(path: Path, start: int, body: str) -> _Doc:
    numbers = list(_DOCNO_RE.finditer(body))
    if len(numbers) != 1:
        raise ImportFailed(
            f"a <DOC> needs one <DOCNO>...</DOCNO>, this one has {len(numbers)}",
            path=path,
            line=start,
            column=1,
        )
    found = numbers[0]
    doc_id = found.group(1).strip()
    check_doc(doc_id, path, start + body.count("\n", 0, found.start()), 1)
    rest = body[: found.start()] + " " + body[found.end() :]
    text = " ".join(html.unescape(_TAG_RE.sub(" ", rest)).split())
    return _Doc(doc_id, {"_id": doc_id, "title": "", "text": text})


def _jsonl(path: Path, *, beir: bool) -> Iterator[tuple[_Doc, int]]:
    id_keys = ("_id",) if beir else ID_KEYS
    text_keys = ("text",) if beir else TEXT_KEYS
    any_line = False
    for n, line in _lines(path):
        if not line.strip():
            continue
        any_line = True
        record = json_object(line.rstrip("\r\n"), path, n)
        if "\\u" in line:  # an escape may stand for a lone surrogate, which UTF-8 cannot hold
            _refuse_surrogates(record, path, n)
        yield _json_doc(record, id_keys, text_keys, path, n), n
    if not any_line:
        raise ImportFailed("no document (an empty file)", path=path, line=1, column=1)


def _refuse_surrogates(record: dict[str, Any], path: Path, n: int) -> None:
    found = _SURROGATE_RE.search(json.dumps(record, ensure_ascii=False))
    if found is not None:
        raise ImportFailed(
            f"a lone surrogate U+{ord(found.group()):04X} (an escape UTF-8 cannot write); "
            "nothing written",
            path=path,
            line=n,
            column=1,
        )


def _json_doc(
    record: dict[str, Any],
    id_keys: tuple[str, ...],
    text_keys: tuple[str, ...],
    path: Path,
    n: int,
) -> _Doc:
    id_key = next((k for k in id_keys if k in record), None)
    if id_key is None:
        wanted = " or ".join(f"`{k}`" for k in id_keys)
        raise ImportFailed(f"a document without {wanted}", path=path, line=n, column=1)
    doc_id = record[id_key]
    if isinstance(doc_id, int) and not isinstance(doc_id, bool):
        doc_id = str(doc_id)
    if not isinstance(doc_id, str):
        raise ImportFailed(f"`{id_key}` must be a string", path=path, line=n, column=1)
    check_doc(doc_id, path, n, 1)
    text_key = next((k for k in text_keys if k in record), None)
    if text_key is None:
        wanted = " or ".join(f"`{k}`" for k in text_keys)
        raise ImportFailed(f"document {doc_id!a} has no {wanted}", path=path, line=n, column=1)
    text, title = record[text_key], record.get("title", "")
    if title is None:
        title = ""
    for key, value in ((text_key, text), ("title", title)):
        if not isinstance(value, str):
            raise ImportFailed(
                f"document {doc_id!a}: `{key}` must be a string", path=path, line=n, column=1
            )
    # other keys kept; `_id` and `text` come first in both key lists, so none is among them
    rest = {k: v for k, v in record.items() if k not in (id_key, text_key, "title")}
    return _Doc(doc_id, {"_id": doc_id, "title": title, "text": text, **rest})
