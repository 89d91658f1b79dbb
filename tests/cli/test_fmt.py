"""``labelpool fmt``: canonical order and quoting, comments kept, idempotent, ``--check``."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from labelpool import labelfile, yamlfile
from labelpool.cli import main

MESSY = """\
# reviewed by alice
id: returns-damaged
question: My parcel arrived damaged. Can I send it back?
relevant_doc_ids:
  - policy-returns-v3#sec-2
  - faq-shipping#damaged
judged_ids:
  - policy-returns-v3#sec-2   # the current policy
  - handbook#returns
  - 0123
  - faq-shipping#damaged
grades:
  policy-returns-v3#sec-2: 2
relevant_classes:
  - - policy-returns-v3#sec-2
    - faq-shipping#damaged
pool:
  - system: bm25
    k: 20
    date: 2026-06-02
x-reviewer: alice
"""

CLEAN = """\
# reviewed by alice
id: returns-damaged
question: My parcel arrived damaged. Can I send it back?
relevant_doc_ids:
  - faq-shipping#damaged
  - policy-returns-v3#sec-2
judged_ids:
  - '0123'
  - faq-shipping#damaged
  - handbook#returns
  - policy-returns-v3#sec-2   # the current policy
grades:
  policy-returns-v3#sec-2: 2
relevant_classes:
  - - faq-shipping#damaged
    - policy-returns-v3#sec-2
pool:
  - system: bm25
    k: 20
    date: '2026-06-02'
x-reviewer: alice
"""


def test_fmt_check_then_fix_then_clean(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = repo / "labels" / "returns-damaged.yaml"
    path.write_text(MESSY, encoding="utf-8")
    other = repo / "labels" / "clean.yaml"
    other.write_text(CLEAN.replace("returns-damaged", "clean"), encoding="utf-8")
    clean_mtime = other.stat().st_mtime_ns

    assert main(["fmt", "--check", "--repo", str(repo)]) == 1
    out = capsys.readouterr().out
    assert f"{path}: would reformat" in out
    assert str(other) not in out
    assert path.read_text(encoding="utf-8") == MESSY  # --check changes nothing

    assert main(["fmt", "--repo", str(repo)]) == 0
    assert path.read_text(encoding="utf-8") == CLEAN
    assert other.stat().st_mtime_ns == clean_mtime  # an unchanged file is not rewritten
    capsys.readouterr()

    assert main(["fmt", "--check", "--repo", str(repo)]) == 0
    assert "0 file(s) would be reformatted, 2 unchanged" in capsys.readouterr().out
    # the formatted file reads the same through both loaders and keeps the typo'd date a string
    data = yamlfile.load_fast(path)
    assert data["pool"][0]["date"] == "2026-06-02"
    assert "0123" in data["judged_ids"]


def test_fmt_moves_comments_with_the_items_they_belong_to(repo: Path) -> None:
    path = repo / "labels" / "q.yaml"
    path.write_text(
        "id: q\njudged_ids:\n  - e   # eol e\n  # about c\n  - c\n  - a  # eol a\n"
        "  # about x-note\nx-note: 1\n",
        encoding="utf-8",
    )
    assert main(["fmt", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == (
        "id: q\njudged_ids:\n  - a  # eol a\n  # about c\n  - c\n  - e   # eol e\n"
        "  # about x-note\nx-note: 1\n"
    )


def test_fmt_on_explicit_paths_and_folders(repo: Path) -> None:
    a = repo / "labels" / "a.yaml"
    a.write_text(MESSY.replace("returns-damaged", "a"), encoding="utf-8")
    elsewhere = repo / "more"
    elsewhere.mkdir()
    b = elsewhere / "b.yaml"
    b.write_text(MESSY.replace("returns-damaged", "b"), encoding="utf-8")
    assert main(["fmt", str(a)]) == 0
    assert a.read_text(encoding="utf-8") == CLEAN.replace("returns-damaged", "a")
    assert b.read_text(encoding="utf-8") != CLEAN.replace("returns-damaged", "b")
    assert main(["fmt", str(elsewhere)]) == 0
    assert b.read_text(encoding="utf-8") == CLEAN.replace("returns-damaged", "b")
    assert main(["fmt", str(repo / "missing.yaml")]) == 2


def test_fmt_is_idempotent_as_a_process(repo: Path) -> None:
    path = repo / "labels" / "returns-damaged.yaml"
    path.write_text(MESSY, encoding="utf-8")
    subprocess.run(["labelpool", "fmt", "--repo", str(repo)], check=True, capture_output=True)
    first = path.read_bytes()
    subprocess.run(["labelpool", "fmt", "--repo", str(repo)], check=True, capture_output=True)
    assert path.read_bytes() == first == CLEAN.encode()


def test_fmt_reports_unsafe_files_without_traceback(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = repo / "labels" / "bad.yaml"
    bad.write_text("id: bad\nquestion: &a x\n", encoding="utf-8")
    good = repo / "labels" / "good.yaml"
    good.write_text(MESSY.replace("returns-damaged", "good"), encoding="utf-8")
    assert main(["fmt", "--repo", str(repo)]) == 1
    captured = capsys.readouterr()
    assert f"{bad}:2:11: LP009 anchor &a" in captured.out
    assert "Traceback" not in captured.out + captured.err
    assert bad.read_text(encoding="utf-8") == "id: bad\nquestion: &a x\n"
    assert good.read_text(encoding="utf-8") == CLEAN.replace("returns-damaged", "good")


def test_fmt_then_validate_is_clean(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = repo / "labels" / "returns-damaged.yaml"
    path.write_text(MESSY, encoding="utf-8")
    assert main(["fmt", "--repo", str(repo)]) == 0
    capsys.readouterr()
    code = main(["validate", "--repo", str(repo)])
    captured = capsys.readouterr()
    assert code == 0, captured.out + captured.err


def test_fmt_never_replaces_a_symlink_with_a_file(
    repo: Path, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path_factory.mktemp("elsewhere") / "real.yaml"
    target.write_text(MESSY, encoding="utf-8")
    link = repo / "labels" / "returns-damaged.yaml"
    link.symlink_to(target)
    assert main(["fmt", "--repo", str(repo)]) == 1
    assert f"{link}:1:1: LP037" in capsys.readouterr().out
    assert link.is_symlink() and target.read_text(encoding="utf-8") == MESSY
    doc = yamlfile.load_roundtrip(link, repair=True)
    labelfile.add_to_sorted_list(doc.data, "judged_ids", "zzz")
    with pytest.raises(yamlfile.YamlError, match="LP037"):
        yamlfile.save(doc)
    assert link.is_symlink() and target.read_text(encoding="utf-8") == MESSY
