"""Write the example help-centre corpus from its text in ``corpus/source/``.

The text is data, written by hand in ``corpus/source/*.yaml``; this script only fills in the
templates a real help centre would itself have (the two versions of each policy are one text with
last year's and this year's facts, the tenants' pages and the product pages one template each),
checks the ids, and writes ``corpus.jsonl`` (BEIR format), ``questions.jsonl`` and
``ground-truth.qrels`` next to itself.

Run from anywhere: ``python corpus/make_corpus.py``. The output is deterministic (chunks in the
order of the source files); ``runs/make_runs.py`` reads it.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "source"

Chunk = tuple[str, str, str]  # (_id, title, text)
Question = tuple[str, str, dict[str, int]]  # (_id, text, {chunk id: grade})


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing a key written twice in one mapping (it keeps the last)."""


def _mapping(loader: _Loader, node: yaml.MappingNode) -> dict[Any, Any]:
    keys = [loader.construct_object(key, deep=True) for key, _ in node.value]
    twice = sorted({str(k) for k in keys if keys.count(k) > 1})
    if twice:
        raise yaml.constructor.ConstructorError(
            None, None, f"key written twice: {', '.join(twice)}", node.start_mark
        )
    return loader.construct_mapping(node, deep=True)


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def _load(name: str) -> Any:
    return yaml.load((SOURCE / name).read_text("utf-8"), Loader=_Loader)


def _strings(mapping: dict[Any, Any], where: str) -> dict[str, str]:
    """The mapping, if all its keys and values are strings (YAML reads 30 as a number)."""
    bad = [k for k, v in mapping.items() if not (isinstance(k, str) and isinstance(v, str))]
    if bad:
        raise SystemExit(f"corpus/source: {where}: not a string (quote it): {bad}")
    return mapping


def _filled(sections: list[dict[str, str]], documents: dict[str, dict[str, str]]) -> list[Chunk]:
    """Every section for every document, its ``{fact}`` placeholders filled in."""
    out: list[Chunk] = []
    for doc, facts in documents.items():
        values = _strings(facts, doc)
        for section in sections:
            sec = _strings(section, f"section {section.get('id')}")
            title, text = sec["title"].format(**values), sec["text"].format(**values)
            out.append((f"{doc}#{sec['id']}", title, text))
    return out


def chunks() -> list[Chunk]:
    """The corpus: policies, hand-written pages, tenants' pages, product pages, in that order."""
    out: list[Chunk] = []
    for family in _load("policies.yaml").values():
        out += _filled(family["sections"], family["documents"])
    for entry in _load("pages.yaml"):
        page = _strings(entry, f"page {entry.get('id')}")
        if "copy" in page:
            texts = {i: x for i, _, x in out}
            if page["copy"] not in texts:
                raise SystemExit(f"corpus/source: {page['id']} copies no earlier chunk")
            out.append((page["id"], page["title"], texts[page["copy"]]))
        else:
            out.append((page["id"], page["title"], page["text"]))
    tenants = _load("tenants.yaml")
    out += _filled(tenants["sections"], tenants["documents"])
    products = _load("products.yaml")
    delivery = _strings(products["delivery"], "delivery")
    docs = {d: {**f, "delivery": delivery[f["kind"]]} for d, f in products["documents"].items()}
    return out + _filled(products["sections"], docs)


def questions() -> list[Question]:
    """The questions and their ground truth: {chunk id: 2 (answers it) or 1 (helps)}."""
    out: list[Question] = []
    for q in _load("questions.yaml"):
        truth = q.pop("truth")
        _strings(q, f"question {q.get('id')}")
        bad = [d for d, g in truth.items() if not isinstance(d, str) or type(g) is not int]
        if bad or not set(truth.values()) <= {1, 2}:
            raise SystemExit(f"corpus/source: question {q['id']}: grades must be 1 or 2: {truth}")
        out.append((q["id"], q["text"], truth))
    return out


def render() -> dict[str, str]:
    """The text of each generated file, by name, after checking the ids."""
    rows, qs = chunks(), questions()
    for what, ids in (("chunk", [r[0] for r in rows]), ("question", [q[0] for q in qs])):
        twice = sorted(i for i, n in Counter(ids).items() if n > 1)
        if twice:
            raise SystemExit(f"duplicate {what} ids: {twice}")
    known = {r[0] for r in rows}
    unknown = sorted(d for _, _, truth in qs for d in truth if d not in known)
    if unknown:
        raise SystemExit(f"ground truth names documents missing from the corpus: {unknown}")
    return {
        "corpus.jsonl": "".join(
            json.dumps({"_id": i, "title": t, "text": x}, ensure_ascii=False) + "\n"
            for i, t, x in rows
        ),
        "questions.jsonl": "".join(
            json.dumps({"_id": q, "text": t}, ensure_ascii=False) + "\n" for q, t, _ in qs
        ),
        "ground-truth.qrels": "".join(
            f"{q} 0 {d} {g}\n" for q, _, truth in qs for d, g in sorted(truth.items())
        ),
    }


def write_atomic(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write(folder: Path) -> dict[str, str]:
    """Write the generated files into ``folder``; return their texts by name."""
    files = render()
    for name, text in files.items():
        write_atomic(folder / name, text)
    return files


def main() -> None:
    files = write(HERE)
    rows, qs = (files[n].count("\n") for n in ("corpus.jsonl", "questions.jsonl"))
    print(f"corpus/corpus.jsonl: {rows} chunks; {qs} questions")


if __name__ == "__main__":
    main()
