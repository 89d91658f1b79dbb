"""Corpus facts: lazy chunk text, supersession links (explicit, by pattern, transitive), on
the real PEP supersession headers."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from labelpool import config, corpus
from labelpool.cli import main
from labelpool.config import DEFAULT_VERSION_PATTERN


def pep(number: str) -> str:
    return f"pep-{int(number):04d}"


def links_from_headers(peps_dir: Path) -> dict[str, list[str]]:
    """``newer -> [older...]`` from the real ``Superseded-By:`` / ``Replaces:`` headers."""
    links: dict[str, set[str]] = {}
    text = (peps_dir / "supersession_headers.txt").read_text(encoding="utf-8")
    for line in text.splitlines():
        fields = [f.strip() for f in line.split(";") if f.strip()]
        if not fields:
            continue
        this = fields[0]
        for field in fields[1:]:
            name, _, value = field.partition(":")
            numbers = re.findall(r"\d+", value)
            if name.strip() == "Superseded-By":
                for n in numbers:
                    links.setdefault(pep(n), set()).add(this)
            elif name.strip() == "Replaces":
                links.setdefault(this, set()).update(pep(n) for n in numbers)
    return {k: sorted(v) for k, v in sorted(links.items())}


def write_versions(path: Path, links: dict[str, list[str]]) -> None:
    lines = ["supersedes:"]
    for newer, olders in links.items():
        lines.append(f"  {newer}:")
        lines.extend(f"    - {o}" for o in olders)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_real_pep_chains(peps_dir: Path, tmp_path: Path) -> None:
    path = tmp_path / "versions.yaml"
    write_versions(path, links_from_headers(peps_dir))
    versions = corpus.read_versions(path, DEFAULT_VERSION_PATTERN)
    chain = ["pep-0241", "pep-0314", "pep-0345", "pep-0566"]
    for i, newer in enumerate(chain):
        for older in chain[:i]:
            assert versions.supersedes(newer, older), (newer, older)
            assert not versions.supersedes(older, newer), (older, newer)
    # Chunk ids: a link covers every chunk of both documents.
    assert versions.supersedes("pep-0566#metadata-2.1", "pep-0241#fields")
    # PEP 563 is superseded by two; PEP 600 replaces three.
    assert versions.supersedes("pep-0649", "pep-0563")
    assert versions.supersedes("pep-0749", "pep-0563")
    assert not versions.supersedes("pep-0649", "pep-0749")
    for older in ("pep-0513", "pep-0571", "pep-0599"):
        assert versions.supersedes("pep-0600", older)
    assert versions.supersedes("pep-3333", "pep-0333")
    assert versions.supersedes("pep-0249", "pep-0248")
    assert not versions.supersedes("pep-0249", "pep-0333")
    assert not versions.supersedes("pep-0333", "pep-0333")


def test_class_mixing_wsgi_versions_is_refused(
    peps_dir: Path,
    repo: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    (repo / "corpus").mkdir()
    write_versions(repo / "corpus" / "versions.yaml", links_from_headers(peps_dir))
    # The corpus: one chunk per real PEP file.
    with open(repo / "corpus" / "corpus.jsonl", "w", encoding="utf-8") as fh:
        for rst in sorted((peps_dir / "peps").glob("pep-*.rst")):
            fh.write(
                json.dumps(
                    {
                        "_id": f"{rst.stem}#1",
                        "title": rst.stem,
                        "text": rst.read_text(encoding="utf-8")[:2000],
                    }
                )
                + "\n"
            )
    pyproject = repo / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + 'corpus = "corpus/corpus.jsonl"\n')
    (repo / "labels" / "wsgi.yaml").write_text(
        "id: wsgi\nquestion: What is the WSGI interface?\nrelevant_doc_ids:\n"
        "  - pep-3333#1\njudged_ids:\n  - pep-0333#1\n  - pep-3333#1\n"
        "relevant_classes:\n  - - pep-0333#1\n    - pep-3333#1\n"
        "pool:\n  - system: bm25\n    k: 10\n    date: '2026-06-02'\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(repo)
    assert main(["validate"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "labels/wsgi.yaml:10:7: LP031 relevant_classes[0]: pep-3333#1 supersedes pep-0333#1; "
        "a class must not mix versions (keep the current one)"
    ]
    texts = corpus.load_texts(config.load(repo))
    assert "WSGI" in texts["pep-3333#1"].text and texts["pep-3333#1"].title == "pep-3333"


def test_version_pattern_links_and_config(tmp_path: Path) -> None:
    versions = corpus.Versions({}, DEFAULT_VERSION_PATTERN)
    assert versions.supersedes("policy-returns-v3#sec-2", "policy-returns-v2#sec-2")
    assert versions.supersedes("policy-returns-v10", "policy-returns-v9")
    assert not versions.supersedes("policy-returns-v2", "policy-returns-v3")
    assert not versions.supersedes("policy-returns-v3", "policy-warranty-v2")
    assert not corpus.Versions({}, None).supersedes("policy-returns-v3", "policy-returns-v2")
    # Explicit and implicit links chain: new-policy -> v3 -> (pattern) v1.
    mixed = corpus.versions_from_mapping(
        {"new-policy": ["policy-returns-v3"]}, DEFAULT_VERSION_PATTERN
    )
    assert mixed.supersedes("new-policy#a", "policy-returns-v1#b")


def test_versions_file_errors_have_positions(tmp_path: Path) -> None:
    path = tmp_path / "versions.yaml"
    path.write_text("supersedes:\n  doc-b:\n    - has space\n", encoding="utf-8")
    with pytest.raises(corpus.CorpusError) as info:
        corpus.read_versions(path, None)
    assert str(info.value).startswith(f"{path}:3:7: 'has space' does not match")
    path.write_text("supersedes: [a]\n", encoding="utf-8")
    with pytest.raises(
        corpus.CorpusError, match=r"versions.yaml:1:1: \['a'\] is not of type 'object'"
    ):
        corpus.read_versions(path, None)


def test_texts_are_read_lazily(tmp_path: Path) -> None:
    path = tmp_path / "corpus.jsonl"
    rows = [{"_id": f"d{i}#1", "title": f"T{i}", "text": f"text {i} é"} for i in range(3)]
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    texts = corpus.CorpusTexts(path)
    assert texts._offsets is None  # nothing read before the first look-up
    assert texts["d2#1"] == corpus.Text("d2#1", "T2", "text 2 é")
    assert len(texts) == 3 and "d0#1" in texts and "nope" not in texts
    os.unlink(path)
    # The index was built once; look-ups after that reopen the file.
    with pytest.raises(FileNotFoundError):
        texts["d1#1"]


def test_bad_corpus_line_has_a_position(tmp_path: Path) -> None:
    path = tmp_path / "corpus.jsonl"
    path.write_text('{"_id": "a", "text": ""}\n{"_id": "b", "text": \n', encoding="utf-8")
    with pytest.raises(corpus.CorpusError, match=r"corpus.jsonl:2:\d+: not JSON"):
        corpus.CorpusTexts(path).ids()
    assert (
        corpus.load_texts(config.Config(root=tmp_path, labels_dir=tmp_path, runs_dir=tmp_path))
        == {}
    )
