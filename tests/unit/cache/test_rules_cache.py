"""The validate cache: keyed by content, outside the tree, safe to delete; and the real labels."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from labelpool import config
from labelpool.workflows.validate.full import default_cache_dir, validate

ROOT = Path(__file__).resolve().parents[3]


def label(qid: str, judged: str = "doc-b#1") -> str:
    return (
        f"id: {qid}\nquestion: Where is my parcel?\nrelevant_doc_ids:\n  - doc-a#1\n"
        f"judged_ids:\n  - doc-a#1\n  - {judged}\npool:\n  - system: bm25\n    k: 20\n"
        "    date: '2026-06-02'\n"
    )


def test_cache_reuses_results_by_content(
    repo: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    cache = tmp_path_factory.mktemp("cache")
    for i in range(5):
        (repo / "labels" / f"q{i}.yaml").write_text(label(f"q{i}"), encoding="utf-8")
    cfg = config.load(repo)
    first = validate(cfg, cache_dir=cache)
    assert (first.checked, first.findings) == (5, ())
    assert list(cache.iterdir()) and not any(
        p.name.startswith("validate-") for p in repo.rglob("*")
    )
    assert validate(cfg, cache_dir=cache).checked == 0
    # A changed file is checked again; the cached results of the others still count.
    (repo / "labels" / "q1.yaml").write_text(label("q1", "doc-a#1"), encoding="utf-8")
    second = validate(cfg, cache_dir=cache)
    assert second.checked == 1
    assert [f.rule for f in second.findings] == ["LP026"]
    # Cross-file rules are recomputed from cached facts: a new file with a clashing id.
    (repo / "labels" / "Q2.yaml").write_text(label("Q2"), encoding="utf-8")
    third = validate(cfg, [repo / "labels" / "q2.yaml"], cache_dir=cache)
    assert third.checked == 1
    assert [(f.path, f.rule) for f in third.findings] == [("labels/q2.yaml", "LP023")]
    # Safe to delete; a corrupt cache is ignored.
    for p in cache.iterdir():
        p.write_text("{not json", encoding="utf-8")
    assert validate(cfg, cache_dir=cache).checked == 6
    for p in cache.iterdir():
        p.unlink()
    assert validate(cfg, cache_dir=cache).checked == 6


def test_results_equal_with_and_without_cache_and_in_parallel(
    repo: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    for i in range(450):
        judged = "doc-a#1" if i % 50 == 0 else "doc-b#1"
        (repo / "labels" / f"q{i}.yaml").write_text(label(f"q{i}", judged), encoding="utf-8")
    cfg = config.load(repo)
    cache = tmp_path_factory.mktemp("cache")
    serial = validate(cfg, use_cache=False, jobs=1)
    parallel = validate(cfg, cache_dir=cache, jobs=2)
    warm = validate(cfg, cache_dir=cache, jobs=2)
    assert serial.findings == parallel.findings == warm.findings
    assert len(serial.findings) == 9 and warm.checked == 0


def test_cache_dir_from_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path / "a"))
    assert default_cache_dir() == tmp_path / "a"
    monkeypatch.delenv("LABELPOOL_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "labelpool"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_cache_dir() == tmp_path / "home" / ".cache" / "labelpool"


def test_the_repository_labels_are_clean(tmp_path: Path) -> None:
    assert any((ROOT / "labels").glob("*.yaml")), "the example labels/ is missing"
    env = {**os.environ, "LABELPOOL_CACHE_DIR": str(tmp_path)}
    proc = subprocess.run(
        ["labelpool", "validate", "--repo", str(ROOT)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr


def test_same_size_rewrite_right_after_a_run_is_seen(
    repo: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    cache = tmp_path_factory.mktemp("cache")
    path = repo / "labels" / "q1.yaml"
    path.write_text(label("q1"), encoding="utf-8")
    cfg = config.load(repo)
    assert validate(cfg, cache_dir=cache).findings == ()
    path.write_text(label("q1", "doc-a#1"), encoding="utf-8")  # same size, same inode
    assert [f.rule for f in validate(cfg, cache_dir=cache).findings] == ["LP026"]


def test_unchanged_old_files_use_the_stat_signature(
    repo: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    cache = tmp_path_factory.mktemp("cache")
    path = repo / "labels" / "q1.yaml"
    path.write_text(label("q1", "doc-a#1"), encoding="utf-8")
    old = 1_700_000_000
    os.utime(path, (old, old))
    cfg = config.load(repo)
    first = validate(cfg, cache_dir=cache)
    (run,) = cache.glob("validate-*-run.json")
    # The file's ctime is recent (utime sets it): no signature is trusted yet.
    assert json.loads(run.read_text())["stat"] is None
    time.sleep(1.1)
    second = validate(cfg, cache_dir=cache)
    assert json.loads(run.read_text())["stat"]
    third = validate(cfg, cache_dir=cache)
    assert first.findings == second.findings == third.findings
    assert [f.rule for f in third.findings] == ["LP026"]


def test_fast_view_reads_labels_like_yamlio(tmp_path: Path) -> None:
    from labelpool import yamlfile
    from labelpool.rules.view import compose

    files = sorted((ROOT / "labels").glob("*.yaml"))
    assert files, "the example labels/ is missing"
    for path in files:
        assert compose(path.read_bytes()).data == yamlfile.load_fast(path), path
