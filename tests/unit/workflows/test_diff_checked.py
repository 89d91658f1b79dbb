"""``diff`` over the label index: blobs the working tree's read checked are built without
checking them again (``labelindex.stored.checked_data_of``), labels are built without their
record of judges (``label_from_data(provenance=False)``), and none of it changes a byte of
the output: with the index empty, filled by an earlier diff (rows unchecked), or filled by
reads of the working tree (rows checked). A blob with findings is reported as before.

Real git repositories in tmp folders; no mock.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from labelpool import columns, config, gitio, labelset, schemas
from labelpool.cli import main
from labelpool.labelindex import stored
from labelpool.model import label_from_data
from labelpool.workflows.audit import diff as diff_mod
from labelpool.workflows.audit import revisions

RECORD = (
    "verdicts:\n  d0:\n    - {judge: Jo <jo@example.org>, verdict: relevant}\n"
    "    - {judge: Al <al@example.org>, verdict: irrelevant}\n"
)
POOL = "pool:\n  - {system: bm25, k: 10, date: '2026-01-02'}\n"
PENDING = (
    "pending:\n  - batch: '2026-01-03-bm25@10'\n    systems: [bm25]\n    depth: 10\n"
    "    date: '2026-01-03'\n    docs:\n      - doc: d7\n        verdict:\n      - doc: d8\n"
    "        verdict: relevant\n"
)


def git(repo: Path, *args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=repo, capture_output=True, check=False)
    assert proc.returncode == 0, f"git {args}: {proc.stderr!r}"
    return proc.stdout.decode()


def label(qid: str, judged: list[str], relevant: list[str], tail: str = "") -> str:
    return (
        f"id: {qid}\nquestion: Where is {qid}?\nrelevant_doc_ids:\n"
        + "".join(f"  - {d}\n" for d in relevant)
        + "judged_ids:\n"
        + "".join(f"  - {d}\n" for d in judged)
        + tail
    )


@pytest.fixture
def two(repo: Path) -> tuple[Path, str, str]:
    """Two commits: q0..q5, then q0 flipped with a record of judges, q1 pooled and judged
    more, q2 removed, q3 only given a record (no change in meaning), q4 judged anew, q5
    with a pending batch and a class; the working tree back at the first."""
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", "Runner")
    git(repo, "config", "user.email", "runner@example.invalid")
    labels = repo / "labels"
    for i in range(6):
        (labels / f"q{i}.yaml").write_text(label(f"q{i}", ["d0", "d1"], ["d0"]))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one")
    first = git(repo, "rev-parse", "HEAD").strip()
    (labels / "q0.yaml").write_text(label("q0", ["d0", "d1"], ["d1"], RECORD))
    (labels / "q1.yaml").write_text(label("q1", ["d0", "d1", "d2"], ["d0", "d2"], POOL))
    (labels / "q2.yaml").unlink()
    (labels / "q3.yaml").write_text(label("q3", ["d0", "d1"], ["d0"], RECORD))
    (labels / "q4.yaml").write_text(label("q4", ["d9"], ["d9"]))
    classes = "relevant_classes:\n  - [d0, d3]\n"
    (labels / "q5.yaml").write_text(label("q5", ["d0", "d1"], ["d0"], classes + PENDING))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "two")
    second = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", first)
    return repo, first, second


def outputs(capsys: pytest.CaptureFixture[str], repo: Path, *revs: str) -> list[str]:
    """The diff's text, JSON and markdown."""
    out = []
    for fmt in ("text", "json", "markdown"):
        capsys.readouterr()
        assert main(["diff", *revs, "--repo", str(repo), "--format", fmt]) == 0
        out.append(capsys.readouterr().out)
    return out


def read_checked(repo: Path, rev: str) -> list[tuple[str, bool]]:
    """(question, checked) of every label file at ``rev``, as the index holds it."""
    cfg = config.load(repo)
    names = sorted(p for p in git(repo, "ls-tree", "--name-only", rev, "labels/").split())
    blobs = [git(repo, "rev-parse", f"{rev}:{n}").strip() for n in names]
    schema = schemas.schema_path(schemas.LABEL, cfg.root)
    tag = labelset.index_tag(cfg.max_file_bytes, cfg.max_depth, schema)

    def fetch(wanted: list[str]) -> list[bytes | None]:
        return [git(repo, "cat-file", "blob", b).encode() for b in wanted]

    def parse(blob: str, raw: bytes) -> tuple[object, bool]:
        return revisions.parse_label(raw, blob).id, False  # never kept

    extra = columns.SCHEMA
    found = stored.checked_data_of(cfg.labels_dir, blobs, fetch, parse, tag=tag, extra=extra)
    data = [found.data(i) for i in range(len(blobs))]
    assert data == stored.data_of(cfg.labels_dir, blobs, fetch, parse, tag=tag, extra=extra)
    return [
        (d["id"] if isinstance(d, dict) else str(d), found.checked(i)) for i, d in enumerate(data)
    ]


def test_the_diff_is_the_same_with_the_index_empty_unchecked_and_checked(
    two: tuple[Path, str, str], cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, first, second = two
    cold = outputs(capsys, repo, first, second)
    assert outputs(capsys, repo, first, second) == cold  # rows the diff added: unchecked
    assert not any(ok for _, ok in read_checked(repo, second))
    git(repo, "checkout", "-q", second)  # each working tree read: its rows checked
    labelset.load(config.load(repo))
    git(repo, "checkout", "-q", first)
    labelset.load(config.load(repo))
    assert all(ok for _, ok in read_checked(repo, first))
    assert dict(read_checked(repo, second))["q1"]  # (the read of first may prune a few)
    assert outputs(capsys, repo, first, second) == cold
    assert outputs(capsys, repo, second, first)[1] != cold[1]
    shutil.rmtree(cache)
    assert outputs(capsys, repo, first, second) == cold
    text, json_out, _ = cold
    assert "q3" not in text  # a new record of judges alone is no change in meaning
    assert "q0:\n  ~ flipped d0: relevant (grade 1) -> irrelevant" in text
    q5 = next(q for q in json.loads(json_out)["questions"] if q["question"] == "q5")
    assert q5["pending_opened"] == [{"batch": "2026-01-03-bm25@10", "docs": 2}]
    assert q5["classes_created"] == [["d0", "d3"]]


def test_a_blob_the_index_did_not_check_is_fetched_for_its_findings(
    two: tuple[Path, str, str], cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A grade over LP042's bound at a revision: refused with its position, the same with
    the index empty and with the blob in it (unchecked: it never passed the checks)."""
    repo, first, _ = two
    git(repo, "checkout", "-q", "main")
    text = label("q3", ["d0", "d1"], ["d0"], "grades:\n  d0: 2000000\n")
    (repo / "labels" / "q3.yaml").write_text(text)
    git(repo, "commit", "-q", "-am", "three")
    bad = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", first)
    labelset.load(config.load(repo))  # the first revision's rows checked
    errors = []
    for _ in range(2):  # the index without, then with, the refused blob's row
        capsys.readouterr()
        assert main(["diff", first, bad, "--repo", str(repo)]) == 1
        errors.append(capsys.readouterr().err)
    shutil.rmtree(cache)
    capsys.readouterr()
    assert main(["diff", first, bad, "--repo", str(repo)]) == 1
    errors.append(capsys.readouterr().err)
    assert errors[0] == errors[1] == errors[2]
    assert f"{bad}:labels/q3.yaml:9:7:" in errors[0] and "LP042" in errors[0]
    assert dict(read_checked(repo, bad))["q3"] is False


def test_a_label_without_provenance_is_the_label_less_its_record() -> None:
    data = {
        "id": "q0",
        "question": "Where?",
        "relevant_doc_ids": ["d0"],
        "judged_ids": ["d0", "d1"],
        "relevant_classes": [["d0", "d3"]],
        "verdicts": {
            "d0": [{"judge": "Jo <jo@example.org>", "verdict": "relevant"}],
            "d3": [{"class": "d0", "verdict": "relevant"}],
        },
    }
    full = label_from_data(data)
    bare = label_from_data(data, provenance=False)
    assert full.verdicts and full.class_verdicts
    assert bare.verdicts == {} and bare.class_verdicts == {}
    assert bare == dataclasses.replace(full, verdicts={}, class_verdicts={})
    assert bare.gain == full.gain and bare.judged == full.judged


@pytest.mark.parametrize("enabled", [True, False])
def test_the_diff_leaves_the_collector_as_it_found_it(
    two: tuple[Path, str, str], cache: Path, enabled: bool
) -> None:
    repo, first, second = two
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        d = diff_mod.diff(config.load(repo), first, second)
        assert gc.isenabled() is enabled
    finally:
        gc.unfreeze()
        (gc.enable if was else gc.disable)()
    assert [q.question for q in d.questions] == ["q0", "q1", "q4", "q5"]
    assert [q.question for q in d.questions_removed] == ["q2"]


def test_changed_labels_are_labels_at_both_revisions_of_the_changed_files(
    two: tuple[Path, str, str], cache: Path
) -> None:
    """One ``git diff-tree`` gives what ``ls-tree`` of both commits gives of the changed
    files: a file added (q4 is rewritten; q6 new), one deleted (q2), others edited."""
    repo, first, second = two
    git(repo, "checkout", "-q", "main")
    (repo / "labels" / "q6.yaml").write_text(label("q6", ["d1"], []))
    (repo / "notes.txt").write_text("not a label\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "three")
    third = git(repo, "rev-parse", "HEAD").strip()
    cfg = config.load(repo)
    for old, new in [(first, second), (second, first), (first, third), (third, first)]:
        pairs = gitio.changed_blobs(repo, old, new, "labels")
        trees = [gitio.ls_tree(repo, rev, "labels") for rev in (old, new)]
        assert pairs == {
            n: (trees[0].get(n), trees[1].get(n))
            for n in set(trees[0]) | set(trees[1])
            if trees[0].get(n) != trees[1].get(n)
        }
        changed = revisions.changed_label_files(cfg, old, new)
        assert set(pairs) == changed
        expected = [revisions.labels_at(cfg, rev, changed, provenance=False) for rev in (old, new)]
        assert list(revisions.changed_labels(cfg, old, new, provenance=False)) == expected
    assert gitio.changed_blobs(repo, first, first, "labels") == {}


def test_two_broken_revisions_are_refused_at_the_first_as_before(
    two: tuple[Path, str, str], cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The old revision holds a label over LP042's bound (refused once built), the new one a
    file that is not YAML (refused as it is read): read together, the new one's would be met
    first; the diff still names the old revision's, as reading one after the other does."""
    repo, first, _ = two
    git(repo, "checkout", "-q", "main")
    (repo / "labels" / "q3.yaml").write_text(
        label("q3", ["d0"], ["d0"], "grades:\n  d0: 2000000\n")
    )
    git(repo, "commit", "-q", "-am", "over the bound")
    bad = git(repo, "rev-parse", "HEAD").strip()
    (repo / "labels" / "q3.yaml").write_text("id: q3\njudged_ids: [d0\n")
    git(repo, "commit", "-q", "-am", "not yaml")
    worse = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", first)
    capsys.readouterr()
    assert main(["diff", bad, worse, "--repo", str(repo)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:labels/q3.yaml:" in err and "LP042" in err
