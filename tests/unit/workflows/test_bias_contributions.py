"""bias: the contributions over arrays equal the per-question reference (entry_tops ->
pooled_tops -> unique_contributions), on real label files, runs and git blobs."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import PYPROJECT
from labelpool import config, labelset
from labelpool.workflows.evaluate.bias import pooled_tops, unique_contributions
from labelpool.workflows.evaluate.contributions import contributions
from labelpool.workflows.validate.pooledruns import PooledRuns
from labelpool.workflows.validate.provenance import entry_tops
from provenance_scenario import commit_all, git, git_init, write_label, write_run

DOCS = [f"d{i}" for i in range(9)]
SYSTEMS = ["A", "B", "C", "D"]  # D never has a run: its entries are "no run"
MISSING_BLOB = "0" * 40


@st.composite
def scenarios(draw: Any) -> dict[str, Any]:
    qids = [f"q{i}" for i in range(draw(st.integers(1, 6)))]
    runs = {}
    for system in SYSTEMS[: draw(st.integers(1, 3))]:
        runs[system] = {
            qid: draw(st.permutations(DOCS))[: draw(st.integers(1, 6))]
            for qid in qids
            if draw(st.booleans()) or qid == qids[0]
        }
    labels = {}
    for qid in qids:
        judged = draw(st.lists(st.sampled_from(DOCS), unique=True, min_size=2, max_size=8))
        classes = []
        if len(judged) >= 2 and draw(st.booleans()):
            classes = [judged[:2]]
        entries = draw(
            st.lists(
                st.tuples(
                    st.sampled_from([*runs, *runs, *runs, *runs, "D", "unknown"]),
                    st.integers(1, 6),
                    st.sampled_from(["", "", "", "", "old", "missing"]),
                ),
                max_size=4,
            )
        )
        labels[qid] = {"judged": judged, "classes": classes, "entries": entries}
    return {"runs": runs, "labels": labels}


def _build(root: Path, sc: dict[str, Any]) -> None:
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (root / "labels").mkdir()
    (root / "runs").mkdir()
    git_init(root)
    old_blobs = {}
    for system, rankings in sc["runs"].items():  # an older version of each run, committed
        write_run(root, system, {q: list(reversed(d)) for q, d in rankings.items()})
    commit_all(root, "old runs")
    for system in sc["runs"]:
        old_blobs[system] = git(root, "rev-parse", f"HEAD:runs/{system}.trec")
    for system, rankings in sc["runs"].items():
        write_run(root, system, rankings)
    for qid, lab in sc["labels"].items():
        pool: list[Any] = []
        for system, k, blob in lab["entries"]:
            if system == "unknown":
                pool.append(("unknown", None))
            elif blob == "old" and system in old_blobs:
                pool.append((system, k, old_blobs[system]))
            elif blob == "missing":
                pool.append((system, k, MISSING_BLOB))
            else:
                pool.append((system, k))
        write_label(root, qid, judged=lab["judged"], classes=lab["classes"], pool=pool)
    commit_all(root, "labels")


@settings(max_examples=60, deadline=None)
@given(scenarios())
def test_contributions_equal_the_per_question_reference(sc: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        _build(root, sc)
        cfg = config.load(root)
        labels = labelset.load(cfg)
        pooled, unattributed = pooled_tops(entry_tops(PooledRuns(cfg), labels))
        expected = unique_contributions(labels, pooled)
        assert contributions(labels, PooledRuns(cfg)) == (expected, unattributed)
