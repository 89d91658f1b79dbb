"""``workflows.diff._both``: the labels of two revisions, unchanged files parsed once.

``diff --scores`` scores every run against the labels of both revisions. When git says few
label files changed, the old labels are built from the new ones with the changed files'
labels swapped for their old versions; these tests hold that shortcut to reading both
revisions in full, on a real repository with edits, a new file, a deleted file and an
uncommitted change.
"""

from __future__ import annotations

import itertools
from pathlib import Path

from history_scenario import BOB, Q1, build, commit_all, label
from labelpool import config
from labelpool.workflows.audit.diff import _both
from labelpool.workflows.audit.revisions import labels_at


def test_both_revisions_equal_two_full_reads(tmp_path: Path) -> None:
    s = build(tmp_path)
    labels = s.repo / "labels"
    for i in range(3, 9):  # more questions, so that one edit is a small part of the set
        (labels / f"q{i}.yaml").write_text(label(f"q{i}", Q1, ["doc-a"], []), encoding="utf-8")
    more = commit_all(s.repo, "six more questions", BOB)
    (labels / "q3.yaml").write_text(label("q3", Q1, ["doc-a", "doc-b"], ["doc-b"]), "utf-8")
    (labels / "q4.yaml").unlink()
    one = commit_all(s.repo, "q3 judged, q4 gone", BOB)
    # uncommitted: q5 edited, q9 new (untracked)
    (labels / "q5.yaml").write_text(label("q5", Q1, ["doc-c"], ["doc-c"]), encoding="utf-8")
    (labels / "q9.yaml").write_text(label("q9", Q1, ["doc-d"], []), encoding="utf-8")
    cfg = config.load(s.repo)
    revs: list[str | None] = [s.imported, s.batch1, s.batch2, more, one, None]
    for old, new in itertools.permutations(revs, 2):
        if old is None:
            continue
        before, after = _both(cfg, old, new)
        assert after == labels_at(cfg, new), (old, new)
        assert before == labels_at(cfg, old), (old, new)
    before, after = _both(cfg, one, None)  # the shortcut: 2 of 8 files differ
    assert set(after) - set(before) == {"q9"}
    assert before["q5"] != after["q5"] and before["q6"] is after["q6"]
